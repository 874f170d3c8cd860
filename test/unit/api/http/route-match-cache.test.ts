import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { cacheRouteMatches, ROUTE_MATCH_CACHE_SIZE } from '../../../../api/http/route-match-cache';

function appWith(router: Router) {
  const app = new Koa();
  app.use(router.routes());
  app.use(router.allowedMethods());
  return supertest(app.callback());
}

describe('cacheRouteMatches', function () {
  it('answers every request as the uncached router does, with its parameters and its 404 and 405', async function () {
    const router = cacheRouteMatches(new Router());
    router.get('/api/things/:id', (ctx) => {
      ctx.body = { id: ctx.params.id, route: ctx._matchedRoute };
    });
    router.post('/api/things', (ctx) => {
      ctx.body = { created: true };
    });
    const http = appWith(router);
    for (let round = 0; round < 3; round++) {
      for (const id of ['a', 'b', 'a']) {
        const res = await http.get(`/api/things/${id}`).expect(200);
        expect(res.body).to.deep.equal({ id, route: '/api/things/:id' });
      }
      expect((await http.post('/api/things').expect(200)).body).to.deep.equal({ created: true });
      await http.get('/api/things').expect(405);
      await http.delete('/api/things/a').expect(405);
      await http.get('/api/nothing').expect(404);
    }
  });

  it('sees a route added after its paths were matched', async function () {
    const router = cacheRouteMatches(new Router());
    router.get('/early', (ctx) => {
      ctx.body = 'early';
    });
    const http = appWith(router);
    await http.get('/late').expect(404);
    router.get('/late', (ctx) => {
      ctx.body = 'late';
    });
    expect((await http.get('/late').expect(200)).text).to.equal('late');
  });

  it('gives each call its own arrays, so what one request appends never reaches the next', function () {
    const router = cacheRouteMatches(new Router());
    router.get('/x', () => undefined);
    const first = router.match('/x', 'GET');
    first.path.push(first.path[0]);
    first.pathAndMethod.length = 0;
    const second = router.match('/x', 'GET');
    expect(second.path).to.have.length(1);
    expect(second.pathAndMethod).to.have.length(1);
    expect(second.route).to.equal(true);
  });

  it('matches a method and path once, and again only after more distinct paths than it keeps', function () {
    const router = new Router();
    router.get('/n/:n', () => undefined);
    let matched = 0;
    const match = router.match.bind(router);
    router.match = (path, method) => {
      matched++;
      return match(path, method);
    };
    cacheRouteMatches(router);
    router.match('/n/0', 'GET');
    router.match('/n/0', 'GET');
    expect(matched).to.equal(1);
    for (let i = 1; i <= ROUTE_MATCH_CACHE_SIZE; i++) router.match(`/n/${i}`, 'GET');
    expect(matched).to.equal(ROUTE_MATCH_CACHE_SIZE + 1);
    // Full: the cache started over, so the first path is matched anew (the cache stays bounded).
    expect(router.match('/n/0', 'GET').route).to.equal(true);
    expect(matched).to.equal(ROUTE_MATCH_CACHE_SIZE + 2);
  });
});
